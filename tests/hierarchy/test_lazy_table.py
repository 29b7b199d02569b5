from pathing_py.hierarchy.lazy_table import LazyTable


def test_values_are_built_once_when_first_read_and_set_values_are_kept():
    built = []

    def square(key):
        built.append(key)
        return [key * key]

    table = LazyTable(range(5), square)
    assert len(table) == 5 and 3 in table and 7 not in table and built == []
    assert table[3] == [9] and table[3] == [9] and table.get(4) == [16] and table.get(7) is None
    assert built == [3, 4] and table.built() == [3, 4]
    table[2] = ["set"]
    assert table[2] == ["set"] and built == [3, 4]
    assert dict(table) == {0: [0], 1: [1], 2: ["set"], 3: [9], 4: [16]} and built == [3, 4, 0, 1]
    assert table == {0: [0], 1: [1], 2: ["set"], 3: [9], 4: [16]}
