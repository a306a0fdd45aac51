"""What every input may be: the limits, the checks, and how a refusal is said in the session's language.
Below everything that takes input (session, page, header, views, tabs), so each of them checks alike."""
