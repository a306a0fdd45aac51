from playground.bench import llm_views


def test_the_llm_lines_time_a_cold_view_and_a_step_and_report_the_shared_copys_memory(monkeypatch):
    small = llm_views.QWEN2_5_0_5B._replace(vocab_size=300, hidden_size=32, n_layers=2, n_heads=4, n_kv_heads=2,
                                            intermediate_size=48, end_of_text=299)
    monkeypatch.setattr(llm_views, "QWEN2_5_0_5B", small)
    views, steps = llm_views.run(quick=True)
    assert (views["name"], views["goal"], steps["name"], steps["goal"]) == (
        "llm_0_5b_attention_view_ms", 3000, "llm_0_5b_step_ms", 400)
    for line in (views, steps):
        assert line["value"] > 0 and line["cpu_ms"] >= 0 and line["load_average"] >= 0
        assert (line["layers"], line["heads"], line["kv_heads"], line["tokens"]) == (2, 4, 2, 64)
        assert line["weights_mib"] == round(sum(p.numel() for p in llm_views.llm_entry().model.parameters()) * 4 / 2**20)
        assert "added_rss_mib" in line
    assert steps["cache_tokens"] == 64
