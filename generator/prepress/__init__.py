"""Print shops: the services' profiles (`services`) and the preflight that checks a PDF against one (`preflight`)."""
