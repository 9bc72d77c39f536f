from accsat.ssa.memory import ANYWHERE, Access, Region


def acc(region, root, offset, size=8, ctype="double"):
    return Access.make(region, root, offset, size, ctype)


U = Region("sym", "u.0")
V = Region("sym", "v.1")
P = Region("restrict", "p.2")
Q = Region("restrict", "q.3")


def test_distinct_declared_arrays_never_alias():
    assert not acc(U, 1, {}).may_alias(acc(V, 2, {}))


def test_restrict_pointers_are_apart_from_objects_and_each_other():
    assert not acc(P, 5, {}).may_alias(acc(U, 1, {}))
    assert not acc(P, 5, {}).may_alias(acc(Q, 6, {}))


def test_plain_pointers_may_alias_anything():
    for other in (U, P, ANYWHERE):
        assert acc(ANYWHERE, 7, {}).may_alias(acc(other, 8, {}))


def test_same_array_constant_distance():
    i = 10  # a term id standing for the index i
    a0 = acc(U, 1, {(i,): 8})  # u[i]
    a1 = acc(U, 1, {(i,): 8, (): 8})  # u[i+1]
    assert not a0.may_alias(a1)
    assert a0.may_alias(acc(U, 1, {(i,): 8}))
    assert a0.same_place(acc(U, 1, {(i,): 8}))


def test_overlap_by_size():
    wide = acc(U, 1, {(): 0}, size=8)
    inner = acc(U, 1, {(): 4}, size=4, ctype="float")
    assert wide.may_alias(inner) and inner.may_alias(wide)
    assert not wide.same_place(inner)


def test_unknown_distance_may_alias():
    assert acc(U, 1, {(10,): 8}).may_alias(acc(U, 1, {(11,): 8}))
    assert acc(U, 1, None).may_alias(acc(U, 1, {}))
