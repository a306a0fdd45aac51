"""What sits above the tabs: own model upload, Hub models, the class room (its rules, rounds, board and pages, and the main page's way in)."""
