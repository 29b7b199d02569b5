"""The tooling around the library: the ``pathing-py`` command, its pictures and animations, the crowd and
formation scenarios it and the tests run, and the Moving AI benchmark reader.

Nothing in the library imports this package (units, groups and the Godot half stand without it), and
``import pathing_py`` does not import it; import its modules by name::

    >>> from pathing_py.tools.scenarios import gate
"""
