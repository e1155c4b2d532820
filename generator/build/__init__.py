"""What `donjon build` makes: the decks (:mod:`~generator.build.decks`), then the other outputs
(:mod:`~generator.build.outputs`: card references and score sheets), and the layout check of `content check`
(:mod:`~generator.build.check`), which draws every card without writing it."""
