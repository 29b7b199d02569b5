"""Commands that maintain the repository (the import graph, the node docs, the release zip, the demo's
screenshot), and the headless Godot runs the tests and the benchmarks share (``godot_headless``,
``godot_python``, ``engine_runs``). Run them from the repository's root."""
