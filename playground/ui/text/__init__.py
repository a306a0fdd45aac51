"""The app's text in English and Simplified Chinese."""
