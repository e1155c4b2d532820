"""Drawing: the backend-neutral drawing model, our vector icons, the fonts, and imposition on sheets."""
