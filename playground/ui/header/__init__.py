"""What sits above the tabs: the class room (its rules, rounds, board and pages, and the main page's way in)."""
