"""The models the harness runs: the catalogue's cases, the LeRobot-shaped policy, real model families,
INT8 models, a program past 2 GiB, and the one seed they are drawn from."""
