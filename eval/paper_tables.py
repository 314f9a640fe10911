"""Rows the papers report, copied from ../shared/seed-notes (on the papers' real data, so
they are context for memlens's rows on generated suites, not a like-for-like comparison)."""
from __future__ import annotations

# SuperMemory-VQA Table 2: (model, Video-RAG Ans-F1, Acc, MRR, EgoButler Ans-F1, Acc, MRR), %.
SUPERMEMORY_TABLE2 = [
    ("Qwen-3-VL 8B", 75.0, 41.8, 63.8, 44.5, 38.8, 61.0),
    ("Qwen-3-VL 30B", 56.6, 45.5, 65.7, 44.2, 39.1, 61.8),
    ("InternVL-3.5 8B", 81.7, 41.0, 63.3, 61.4, 39.8, 61.8),
    ("InternVL-3.5 30B", 77.7, 42.3, 63.7, 28.5, 27.3, 53.4),
    ("Gemma-4-E4B IT", 40.3, 35.3, 58.2, 30.9, 36.4, 58.2),
    ("Gemma-4 31B", 67.2, 45.6, 65.5, 43.9, 41.5, 62.2),
    ("Gemini-3-Flash", 83.9, 61.0, 76.0, 71.2, 54.1, 71.6),
    ("Gemini-3.1-Pro", 67.4, 53.2, 70.7, 43.5, 42.6, 64.2),
    ("GPT-5.4-mini", 77.6, 47.8, 67.4, 75.0, 46.0, 66.1),
    ("GPT-5.4", 78.3, 52.3, 69.5, 71.7, 48.0, 67.2),
]
# Table 3: blind text-only Qwen3-8B on Person 1, accuracy % per category.
SUPERMEMORY_BLIND = {
    "all": 23.8, "conversational_memory": 25.8, "in_context_retrieval": 24.1, "intent_recall": 27.0,
    "object_location_memory": 20.0, "timeline_reconstruction": 21.3, "visual_recall": 25.1,
}
# Table 5: accuracy with partial credit for vague choices, % (Video-RAG, EgoButler).
SUPERMEMORY_TABLE5 = [
    ("Qwen-3-VL 8B", 50.8, 42.1), ("Qwen-3-VL 30B", 49.6, 42.3), ("InternVL-3.5 8B", 49.1, 44.6),
    ("Gemma-4-E4B IT", 38.8, 38.7), ("Gemma-4-31b", 54.4, 44.2), ("Gemini-3-Flash", 64.4, 56.4),
    ("Gemini-3.1-Pro", 55.2, 43.6), ("GPT-5.4-mini", 55.2, 51.4), ("GPT-5.4", 58.3, 53.1),
]
SUPERMEMORY_TASKS = (
    "object_location_memory", "conversational_memory", "visual_recall", "in_context_retrieval",
    "timeline_reconstruction", "intent_recall",
)

# EgoMemReason Table 1: accuracy % per task and overall.
EGOMEMREASON_TASKS = ("Tracking", "Counting", "Ordering", "Linking", "Spatial", "Activity")
EGOMEMREASON_MEMORY_TYPE = {
    "Tracking": "entity", "Counting": "entity", "Ordering": "event", "Linking": "event",
    "Spatial": "behavior", "Activity": "behavior",
}
EGOMEMREASON_TABLE1 = [
    ("Random", 19.6, 16.7, 11.1, 17.3, 19.3, 19.2, 16.8),
    ("InternVL3.5-8B", 23.0, 29.0, 23.0, 27.0, 34.0, 42.0, 28.0),
    ("Qwen-3-VL-8B", 35.0, 28.0, 23.0, 21.0, 40.0, 42.0, 29.6),
    ("InternVL3.5-38B", 33.0, 40.0, 27.0, 24.0, 46.0, 32.0, 32.6),
    ("Qwen-3-VL-30B-A3B", 36.0, 48.0, 25.0, 26.0, 40.0, 30.0, 34.0),
    ("Qwen-3-VL-32B", 35.0, 46.0, 28.0, 27.0, 50.0, 46.0, 36.8),
    ("GPT-5", 29.0, 42.0, 20.0, 18.0, 32.0, 28.0, 27.8),
    ("Gemini-3-Flash", 46.0, 28.0, 36.0, 44.0, 44.0, 44.0, 39.6),
    ("Gemini-3.1-Pro", 40.0, 26.0, 44.0, 33.0, 40.0, 48.0, 37.4),
    ("LongVA-7B", 22.0, 18.0, 20.0, 22.0, 20.0, 22.0, 20.6),
    ("StreamingVLM", 25.0, 29.0, 21.0, 20.0, 20.0, 32.0, 24.2),
    ("InternVideo-2.5-8B", 29.0, 27.0, 25.0, 15.0, 32.0, 32.0, 25.6),
    ("VideoLLaMA3-8B", 23.0, 31.0, 27.0, 32.0, 38.0, 36.0, 30.0),
    ("Molmo2-8B", 36.0, 50.0, 27.0, 25.0, 34.0, 22.0, 33.2),
    ("SiLVR", 31.0, 14.0, 27.0, 17.0, 18.0, 28.0, 22.4),
    ("Ego-R1", 30.0, 18.0, 23.0, 18.0, 48.0, 32.0, 25.8),
    ("WorldMM", 32.0, 44.0, 21.0, 21.0, 34.0, 36.0, 30.6),
    ("AVP", 34.0, 42.0, 31.0, 27.0, 38.0, 34.0, 34.0),
]
