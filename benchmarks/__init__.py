"""Runnable benchmarks: each builds or takes a service.system.MemlensSystem and measures it
(`memlens bench ...`, benchmarks/cli.py), plus stand-alone scripts run with `python -m benchmarks.NAME`."""
