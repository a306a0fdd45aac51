"""The pages a test takes from the pool (`page_pool`): a page given back is lent again with nothing
of the test before it in the browser's storage, and one a test altered is closed, not lent again."""
from .page_pool import PagePool
from .pages import VIEWPORT, WAIT_SECONDS

WRITE_STORAGE = """() => { localStorage.setItem('kept', '1'); sessionStorage.setItem('kept', '1');
                           document.cookie = 'kept=1'; }"""
READ_STORAGE = "() => [localStorage.getItem('kept'), sessionStorage.getItem('kept'), document.cookie]"


def test_a_page_given_back_is_lent_again_with_empty_storage(app, browser):
    pool = PagePool(VIEWPORT, WAIT_SECONDS * 1000)
    page = pool.take(browser, "en-US")
    page.goto(app.url + "?view=tokenizer")
    page.goto(app.url + "?view=positional")
    page.evaluate(WRITE_STORAGE)
    assert page.evaluate(READ_STORAGE) == ["1", "1", "kept=1"]
    page.context.close()                                           # as a test closes its page: given back
    assert not page.is_closed() and page.url == "about:blank"

    again = pool.take(browser, "en-US")
    assert again is page and (pool.opened, pool.reused) == (1, 1)
    again.goto(app.url + "?view=tokenizer")
    assert again.evaluate(READ_STORAGE) == [None, None, ""]
    assert again.evaluate("history.length") == 2                   # about:blank and this address only
    assert pool.take(browser, "zh-CN") is not page                 # another locale: a page of its own
    pool.give_back(again)


def test_a_page_a_test_altered_is_closed_not_lent_again(app, browser):
    pool = PagePool(VIEWPORT, WAIT_SECONDS * 1000)
    for alter in (lambda page: page.context.add_init_script("window.altered = 1"),
                  lambda page: page.on("console", lambda message: None),
                  lambda page: page.set_viewport_size({"width": 390, "height": 844}),
                  lambda page: page.context.new_page()):
        page = pool.take(browser, "en-US")
        alter(page)
        pool.give_back(page)
        assert page.is_closed()
        assert pool.take(browser, "en-US") is not page
