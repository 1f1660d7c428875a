"""A policy shaped like the LeRobot export that returned wrong actions.

Observation normalisation, a small MLP trunk and an action head, and beside the
actions the observation itself (through a copy, as the exported policy echoed its
input batch) and a slice of the normalised observation (through a copy). The echo
is a copy of a partition input: exactly the pattern OpenVINO returns stale, and
since the normalisation reads the same input, the actions go wrong with it.

Fixed seed, random weights, no downloads.
"""

import torch

SEED = 0
STATE_DIM, ACTION_DIM, HIDDEN, NORMALISED_SLICE = 14, 7, 64, 4


class Policy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        generator = torch.Generator().manual_seed(SEED)
        self.register_buffer("state_mean", torch.rand(STATE_DIM, generator=generator))
        self.register_buffer("state_std", torch.rand(STATE_DIM, generator=generator) + 0.5)
        self.register_buffer("action_mean", torch.rand(ACTION_DIM, generator=generator))
        self.register_buffer("action_std", torch.rand(ACTION_DIM, generator=generator) + 0.5)
        with torch.random.fork_rng():
            torch.manual_seed(SEED)
            self.trunk = torch.nn.Sequential(
                torch.nn.Linear(STATE_DIM, HIDDEN), torch.nn.ReLU(),
                torch.nn.Linear(HIDDEN, HIDDEN), torch.nn.ReLU())
            self.head = torch.nn.Linear(HIDDEN, ACTION_DIM)

    def actions(self, state):
        normalised = (state - self.state_mean) / self.state_std
        return self.head(self.trunk(normalised)) * self.action_std + self.action_mean, normalised

    def forward(self, state):
        observation = state.clone()
        actions, normalised = self.actions(observation)
        return actions, observation, normalised[:, :NORMALISED_SLICE].clone()


class PolicyActionsOnly(Policy):
    """The same weights and computation with nothing returned through a copy: the reference a
    correct lowering of ``Policy`` must match, since OpenVINO runs both the same way."""

    def forward(self, state):
        return self.actions(state)[0]


def observation(batch=1):
    return torch.rand(batch, STATE_DIM, generator=torch.Generator().manual_seed(SEED + 1)) * 4 - 2
