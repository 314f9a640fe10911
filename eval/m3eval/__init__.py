"""M3Eval-style (seed 000) generated benchmark: source stories, stimulus builders, questions,
suites, metrics and reports.

Public API (stable names; other helpers build test videos from these):
- stories: `make_pair(topic, rng, pair_id) -> StoryPair(a, b, topic, unused_verbs)`,
  `StoryScript` / `Beat` (JSON: `to_json`, `from_dict`, `load(manifest.json)` = the adapter for
  a user's own video), `render_story(script, path) -> Path`, `TOPICS`, `WIDTH, HEIGHT, FPS`.
- stimuli (generic over any video files): `split_screen(left, right, out, swaps=0|10)`,
  `concatenate([v, ...], out)`, `interleave(a, b, out, segments=10)`, `nback(clips, out)`,
  each -> `Manifest` (spans: which source, which region, when; `Manifest.at(t, region)`,
  `Manifest.order()`), written beside the video as `<stem>.manifest.json`.
- nback: `make_instance(id, "scene"|"action", rng, nk)`, `render_clip(clip, path)`, `NK_FULL`.
- questions: `si`, `ou`, `cr`, `mi` (template; `.named(target)`), `fmd`, `nback_q`, `NAMES` (target wording).
- suite: `build_suite(size, root, seed=0, progress=None) -> Path`, `SIZES`; `build_user_suite(pairs of
  manifest.json paths, root)` for users' own videos.
- metrics: `m3eval_metrics(scored)`; report: `m3eval_report(runs, title)`, `m3eval_plots(runs, out_dir)`.
"""
