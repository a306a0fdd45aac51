"""The accessibility audit's arithmetic: violations count the elements that fail a rule, by impact,
and only the serious and critical ones are listed with where they were found."""
from playground.bench.accessibility import Audit


def violation(rule: str, impact: str, n_nodes: int) -> dict:
    return {"id": rule, "impact": impact, "nodes": [{"target": [f"#{rule}-{i}"]} for i in range(n_nodes)]}


def test_an_audit_counts_failing_elements_by_impact_and_lists_the_serious_ones():
    audit = Audit()
    audit.add("en attention", [violation("color-contrast", "serious", 5), violation("region", "moderate", 2)])
    audit.add("zh-CN lessons", [violation("label", "critical", 1), violation("heading-order", "moderate", 1)])
    assert audit.counts == {"serious": 5, "moderate": 3, "critical": 1}
    assert audit.found == ["en attention: color-contrast (serious) [['#color-contrast-0'], ['#color-contrast-1'], "
                           "['#color-contrast-2']]", "zh-CN lessons: label (critical) [['#label-0']]"]


def test_a_page_without_violations_counts_none():
    audit = Audit()
    audit.add("en lessons", [])
    assert audit.counts["serious"] == 0 and audit.counts["critical"] == 0 and audit.found == []
