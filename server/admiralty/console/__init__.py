"""Rich renderings of matches, replays and tournaments. They read views, never engine state."""
