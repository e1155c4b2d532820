"""The games donjon prints and scores, one package each; :mod:`generator.games.base` is the contract they
fulfil and :mod:`generator.registry` lists them."""
