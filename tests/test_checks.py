"""The one check of a learner's input: numbers, choices, switches and texts, refused with a keyed error
that names the input, its message key and the values a front end fills its own words with."""
import math

import pytest

from playground.checks import InputError, OneOf, Real, Switch, Text, Whole, check_number


@pytest.mark.parametrize("value, key, values", [
    (7, "err_out_of_range", dict(value=7, low=1, high=6)),
    (7.0, "err_out_of_range", dict(value=7, low=1, high=6)),        # a whole float is the number it names
    (2.5, "err_not_integer", dict(value="2.5", low=1, high=6)),
    ("3", "err_not_integer", dict(value="'3'", low=1, high=6)),      # digits are not a number
    (True, "err_not_integer", dict(value="True", low=1, high=6)),    # nor is a switch
    (math.inf, "err_not_integer", dict(value="inf", low=1, high=6)),
])
def test_a_whole_number_is_refused_with_its_key_field_and_values(value, key, values):
    with pytest.raises(InputError) as refused:
        Whole(1, 6).check("layers", value)
    assert (refused.value.key, refused.value.field, refused.value.values) == (key, "layers", values)
    assert isinstance(refused.value, ValueError) and "layers" in str(refused.value)


def test_accepted_values_come_back_as_the_kind_the_rule_names():
    assert Whole(1, 6).check("layers", 3.0) == 3 and isinstance(Whole(1, 6).check("layers", 3.0), int)
    assert Real(0.0, 0.5).check("dropout", 0) == 0.0 and isinstance(Real(0.0, 0.5).check("dropout", 0), float)
    assert OneOf(("pre", "post")).check("norm", "post") == "post"
    assert Switch().check("bias", False) is False
    assert Text(5).check("pasted", None) == "" and Text(5).check("pasted", "abcde") == "abcde"


@pytest.mark.parametrize("rule, value, key", [
    (Real(0.0, 0.5), float("nan"), "err_not_number"),
    (Real(0.0, 0.5), 0.6, "err_out_of_range"),
    (OneOf(("pre", "post")), "middle", "err_bad_choice"),
    (Switch(), 1, "err_form_not_flag"),                               # 1 is not True here
    (Text(5), "abcdef", "err_form_too_long"),
    (Text(5), 12, "err_form_not_text"),
])
def test_every_rule_refuses_with_a_key_a_front_end_can_translate(rule, value, key):
    with pytest.raises(InputError) as refused:
        rule.check("setting", value)
    assert refused.value.key == key and refused.value.field == "setting"


def test_a_quoted_value_is_cut_short():
    with pytest.raises(InputError) as refused:
        check_number("x" * 500, "lr", 0.0, 1.0)
    assert len(refused.value.values["value"]) <= 40
