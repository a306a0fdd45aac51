"""The Attention tab through its API: integer controls are listed as integers and a fraction is
refused by name, never rounded."""
import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

ARGS = ("copy", "abc", "", "cross", 0, 1, False, "diagonal", "en")


@pytest.fixture(scope="module")
def server(served):
    return served.url


def test_integer_controls_take_integers_and_say_so(server):
    client = Client(server, verbose=False)
    listed = {p["parameter_name"]: p["python_type"]["type"]
              for p in client.view_api(return_format="dict", print_info=False)["named_endpoints"]["/attention"]["parameters"]}
    assert listed["layer"] == "int" and listed["head"] == "int"
    assert list(listed)[-6:] == ["lang", "ho_heads", "ho_how", "dla_token", "pt_corrupted",
                                 "pr_property"]                      # fields added later follow the language
    *_, summary = client.predict(*ARGS, api_name="/attention")
    assert "copy" in summary
    with pytest.raises(AppError, match="Head must be a whole number, got 0.5"):
        client.predict(*ARGS[:5], 0.5, *ARGS[6:], api_name="/attention")


def test_a_value_outside_a_controls_range_is_refused_by_the_form_in_the_sessions_language(server):
    """The tab's form checks every value (Gradio's own check of each input is off for its events):
    a layer beyond any model's is refused by name, in the language of the call, not in Gradio's
    English."""
    client = Client(server, verbose=False)
    with pytest.raises(AppError) as refused:
        client.predict(*ARGS[:4], 99, *ARGS[5:8], "zh-CN", api_name="/attention")
    message = str(refused.value)
    assert "99" in message and any("\u4e00" <= ch <= "\u9fff" for ch in message)
    assert "maximum" not in message
