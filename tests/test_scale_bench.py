"""The scale bench at a tiny size: its summary, its synthetic memories and their isolation."""
from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from benchmarks.scale import KEPT_NOTE, KeptMemoryError, ScaleSizes, run_scale_bench, sizes_from
from eval.scale.world import RATES_PER_HOUR, SyntheticWearer, TextPool
from memory.records import CLIP_CAPTION, DAY_SUMMARY, HOUR_SUMMARY, RecordFilter
from retrieval.search import HybridRetriever, SearchQuery
from service.config import AppConfig

TINY = ScaleSizes(days={"day": 1, "week": 2}, other_users=3, other_hours=0.25, hours_per_day=0.5, pool=300,
                  vector_records=5_000, day_video_seconds=0, questions=4)


@pytest.fixture(scope="module")
def pool(embedder, tmp_path_factory):
    return TextPool(embedder.embed, 300, cache_dir=tmp_path_factory.mktemp("pool"))


def test_tiny_run_writes_the_issue_summary_report_and_plot(tmp_path):
    config = AppConfig(home=tmp_path / "home")
    summary = run_scale_bench(config, tmp_path / "out", TINY, work=tmp_path, pool_cache=tmp_path / "pool")
    written = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert written == json.loads(json.dumps(summary))
    assert list(written)[:6] == ["ask_p95_ms", "search_p95_ms", "vector_1m_p95_ms", "ingest_realtime_factor",
                                 "disk_mb_per_video_hour", "peak_rss_mb"]
    assert set(written["ask_p95_ms"]) == set(written["search_p95_ms"]) == {"day", "week"}
    assert all(v > 0 for v in [*written["ask_p95_ms"].values(), *written["search_p95_ms"].values()])
    assert written["vector_1m_p95_ms"] > 0 and written["vector_search"]["records"] == 5_000
    assert written["ingest_realtime_factor"] is None  # no video asked for
    assert written["disk_mb_per_video_hour"] > 0 and written["peak_rss_mb"] > 0
    day, week = written["sizes_measured"]["day"], written["sizes_measured"]["week"]
    for row in (day, week):
        mine = row["records_me_by_store"]
        assert mine["entity"] + mine["event"] == row["records_written_me"]
        assert row["search_hits_of_other_users"] == 0
        assert row["ask_p50_ms"] <= row["ask_p95_ms"] and 0 < row["ask_live_p50_ms"] <= row["ask_live_p95_ms"]
    assert written["ask_live_p95_ms"] == {"day": day["ask_live_p95_ms"], "week": week["ask_live_p95_ms"]}
    assert week["video_hours_me"] == 2 * TINY.hours_per_day + 1  # the day's live video (an hour) counts
    assert week["records_me"] > day["records_me"]
    assert week["records_all_users"] - week["records_me"] == day["records_all_users"] - day["records_me"] > 0
    streamed = [json.loads(line) for line in (tmp_path / "out" / "sizes.jsonl").read_text().splitlines()]
    assert [r.pop("size") for r in streamed] == ["day", "week"] and streamed == [day, week]
    report = (tmp_path / "out" / "report.md").read_text()
    assert "| day |" in report and "| week |" in report and "(<= 300)" in report and "Live:" in report
    assert (tmp_path / "out" / "latency.png").stat().st_size > 1000


def test_a_kept_memory_is_measured_again_as_opened_and_grows_from_where_it_is(tmp_path):
    from dataclasses import replace

    config, keep = AppConfig(home=tmp_path / "home"), tmp_path / "kept"
    first = run_scale_bench(config, tmp_path / "out1", replace(TINY, vector_records=2_000), work=tmp_path,
                            pool_cache=tmp_path / "pool", keep=keep)
    assert (keep / KEPT_NOTE).is_file() and (keep / "memory").is_dir()  # kept, not a temporary folder
    again = replace(TINY, days={"week": 2, "fortnight": 3}, vector_records=2_000)
    second = run_scale_bench(config, tmp_path / "out2", again, work=tmp_path, pool_cache=tmp_path / "pool", keep=keep)
    week1, week2 = first["sizes_measured"]["week"], second["sizes_measured"]["week"]
    assert week1["days_built_this_run"] == 1 and week2["days_built_this_run"] == 0
    assert second["other_users_build_seconds"] is None and second["kept"]["days_held_at_start"] == 2
    # the week as kept: what the first run wrote, its live hour after the week included
    live_hour = week1["records_me"] - first["sizes_measured"]["day"]["records_me"]
    assert week2["records_me"] > week1["records_me"] and week2["records_all_users"] - week2["records_me"] == \
        week1["records_all_users"] - week1["records_me"]
    assert week2["video_hours_me"] == week1["video_hours_me"] + 1 and live_hour > 0
    fortnight = second["sizes_measured"]["fortnight"]
    assert fortnight["days_built_this_run"] == 1 and fortnight["records_me"] > week2["records_me"]
    assert second["sizes_measured"]["fortnight"]["search_hits_of_other_users"] == 0
    assert set(second["ask_p95_ms"]) == {"week", "fortnight"}
    report = (tmp_path / "out2" / "report.md").read_text()
    assert "it held 2 days" in report and "indexes read first" in report
    assert week2["indexes_read_seconds"] >= 0 and fortnight["indexes_read_seconds"] >= 0
    with pytest.raises(KeptMemoryError, match="more than every size"):  # a week cannot be timed inside 3 days
        run_scale_bench(config, tmp_path / "out3", replace(again, days={"week": 2}), work=tmp_path,
                        pool_cache=tmp_path / "pool", keep=keep)
    with pytest.raises(KeptMemoryError, match="built with"):
        run_scale_bench(config, tmp_path / "out4", replace(again, other_users=4), keep=keep)
    noted = json.loads((keep / KEPT_NOTE).read_text())
    assert noted["others_built"] and noted["days"] == 3 and noted["evenings"] == 4  # two sizes measured a run
    mine = tmp_path / "someones-memory"
    (mine / "memory").mkdir(parents=True)
    with pytest.raises(KeptMemoryError, match="not empty"):
        run_scale_bench(config, tmp_path / "out4", again, keep=mine)
    assert not (tmp_path / "out4").exists()  # refused before any work


def test_a_day_is_written_the_same_whether_its_days_before_were_written_in_this_run_or_not(memory, pool):
    def day_two(wearer: SyntheticWearer) -> list[tuple]:
        rows = wearer.memory.store("event").query(RecordFilter(namespace=wearer.namespace, video_ids=(
            f"{wearer.namespace}-day0002",)))
        return sorted((r.kind, r.text, r.start, r.end) for r in rows)

    SyntheticWearer(memory, pool, "me", hours_per_day=0.25).write_days(0, 3)
    resumed = SyntheticWearer(memory, pool, "me", hours_per_day=0.25)
    resumed.namespace = "again"  # the same stream of draws, written where it can be told apart
    resumed.write_days(2, 1)
    assert day_two(resumed) and [r[1:] for r in day_two(resumed)] == [r[1:] for r in day_two(
        SyntheticWearer(memory, pool, "me", hours_per_day=0.25))]


def test_synthetic_hours_come_at_the_measured_rates_and_stay_in_their_namespace(memory, pool):
    counts = SyntheticWearer(memory, pool, "me", hours_per_day=2).write_days(0, 1)
    SyntheticWearer(memory, pool, "other", hours_per_day=2).write_days(0, 1)
    assert counts[CLIP_CAPTION] == 240 and counts[HOUR_SUMMARY] == 2 and counts[DAY_SUMMARY] == 1
    for kind, rate in RATES_PER_HOUR.items():  # Poisson counts: within 5 sigma of the rate
        assert abs(counts[kind] - 2 * rate) <= 5 * np.sqrt(2 * rate) + 1, kind
    stored = Counter(r.kind for s in ("entity", "event") for r in memory.store(s).query(RecordFilter(namespace="me")))
    assert stored == counts
    texts = [r.text for r in memory.store("event").query(RecordFilter(namespace="me", kinds=("utterance",)))]
    said = sum(len(e) for e in pool.entries["utterance"].values())
    assert len(set(texts)) >= 0.8 * min(len(texts), said)  # the whole pool is drawn from, not one string
    retriever = HybridRetriever(memory)
    for text in texts[:5]:  # "other" holds the same pool of texts: a leak would show
        hits = retriever.search(SearchQuery(text=text, namespace="me", k=10))
        assert hits and all(h.record.namespace == "me" for h in hits)


def test_a_live_video_is_one_more_hour_after_the_day_in_its_own_video(memory, pool):
    wearer = SyntheticWearer(memory, pool, "me", hours_per_day=1)
    wearer.write_days(0, 1)
    day_end = max(r.wall_end for r in memory.store("event").query(RecordFilter(namespace="me")))
    counts = wearer.write_evening(0)
    evening = [r for s in ("entity", "event") for r in memory.store(s).query(RecordFilter(namespace="me"))
               if r.video_id.endswith("-evening")]
    assert Counter(r.kind for r in evening) == counts and counts[CLIP_CAPTION] == 120
    assert min(r.wall_start for r in evening) >= day_end


def test_pool_vectors_are_the_embeddings_of_the_record_texts(memory, pool, embedder):
    SyntheticWearer(memory, pool, "me", hours_per_day=0.25).write_days(0, 1)
    records = memory.store("entity").query(RecordFilter(namespace="me"), limit=5)
    found = memory.store("entity").search_dense(records[0].text, RecordFilter(namespace="me"), 1)
    assert found[0][1] == pytest.approx(1.0, abs=1e-4)
    assert np.allclose(pool.fixed_vector("Was in the kitchen"), embedder.embed(["Was in the kitchen"])[0], atol=1e-5)


def test_scale_sizes_parse_and_refuse_bad_specs():
    assert sizes_from("day=1,month=30", quick=True, other_users=5).days == {"day": 1, "month": 30}
    assert sizes_from(None, quick=False, other_users=None).days["year"] == 365
    with pytest.raises(ValueError):
        sizes_from("day=0", quick=True, other_users=None)
    with pytest.raises(ValueError):
        sizes_from("week", quick=True, other_users=None)
