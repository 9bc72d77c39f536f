"""Code generation: place temporaries, print bodies, splice them into the user's text."""
