"""The CPU class OpenVINO computes for in a process, the precision it computes f32 models at, and
programs restamped for another class."""
