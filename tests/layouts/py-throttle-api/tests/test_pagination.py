import pytest

from apiserver.utils.pagination import PageError, PageParams, page_params, paginate


def test_defaults():
    assert page_params({}, 20, 100) == PageParams(20, 0)


@pytest.mark.parametrize("query", [{"limit": "0"}, {"limit": "101"}, {"offset": "-1"}, {"limit": "x"}])
def test_bad_params(query):
    with pytest.raises(PageError):
        page_params(query, 20, 100)


def test_last_page_has_no_next_offset():
    page = paginate(list(range(5)), PageParams(limit=2, offset=4))
    assert page["items"] == [4] and page["next_offset"] is None
