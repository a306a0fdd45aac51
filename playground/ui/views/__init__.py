"""Figures and panels shared by the tabs and the lessons."""
