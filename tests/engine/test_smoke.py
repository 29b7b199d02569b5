from godot import Vector2


def test_demo_navgrid_finds_a_path_between_the_bases(add_scene):
    demo = add_scene("res://scenes/demo.tscn")
    navgrid = demo.get_node("NavGrid")
    path = navgrid.call("find_path", navgrid.call("cell_to_world", Vector2(-2, 1)), navgrid.call("cell_to_world", Vector2(33, 22)))
    assert len(path) > 2
    assert str(navgrid.call("get_last_status")) == "FOUND"
