"""Opt-in benchmark skills: programs written for one benchmark's kind of video and question
(VideoCogQA's symbolic game scenes, M3Eval's composed videos). A skill adds perception
stages and answerers; a configuration turns it on by name (`skills = ["videocogqa"]`), and
`memlens bench videocogqa|m3eval` turns on its own. A default `/ask` consults none."""
