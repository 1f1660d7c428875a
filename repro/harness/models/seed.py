"""The one seed every generated model and input of the harness is drawn from (weights, inputs, token ids), so a
recorded result is the same on every run and a reported case can be run again as it was."""

SEED = 0
