"""A policy shaped like the LeRobot export that returned wrong actions.

Observation normalisation, a conv trunk on a channels-last camera frame, an MLP on the
state and the image features, an action head; and beside the actions the state itself
(through a copy, as the exported policy echoed its input batch) and a slice of the
normalised state (through a copy). The echo is a copy of a partition input: exactly the
pattern OpenVINO returns stale, and since the normalisation reads the same input, the
actions go wrong with it. The channels-last frame is the second bug: handed to OpenVINO
as if it were contiguous, it scrambles the image features.

Fixed seed, random weights, no downloads.
"""

import torch

from repro.harness.models.seed import SEED

STATE_DIM, ACTION_DIM, HIDDEN, NORMALISED_SLICE = 14, 7, 64, 4
IMAGE_SHAPE, IMAGE_FEATURES = (1, 3, 32, 32), 16


class Policy(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        generator = torch.Generator().manual_seed(SEED)
        self.register_buffer("state_mean", torch.rand(STATE_DIM, generator=generator))
        self.register_buffer("state_std", torch.rand(STATE_DIM, generator=generator) + 0.5)
        self.register_buffer("action_mean", torch.rand(ACTION_DIM, generator=generator))
        self.register_buffer("action_std", torch.rand(ACTION_DIM, generator=generator) + 0.5)
        with torch.random.fork_rng():
            torch.manual_seed(SEED)
            # Global average pooling as mean(dim=(2, 3)): AdaptiveAvgPool2d + Flatten on a channels-last
            # tensor exports an as_strided_copy that OpenVINO 2025.2's frontend cannot convert.
            self.vision = torch.nn.Sequential(
                torch.nn.Conv2d(3, 8, 3, stride=2), torch.nn.ReLU(),
                torch.nn.Conv2d(8, IMAGE_FEATURES, 3, stride=2), torch.nn.ReLU())
            self.trunk = torch.nn.Sequential(
                torch.nn.Linear(STATE_DIM + IMAGE_FEATURES, HIDDEN), torch.nn.ReLU(),
                torch.nn.Linear(HIDDEN, HIDDEN), torch.nn.ReLU())
            self.head = torch.nn.Linear(HIDDEN, ACTION_DIM)

    def actions(self, state: torch.Tensor, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        normalised = (state - self.state_mean) / self.state_std
        features = torch.cat([normalised, self.vision(image).mean(dim=(2, 3))], dim=1)
        return self.head(self.trunk(features)) * self.action_std + self.action_mean, normalised

    def forward(self, state: torch.Tensor, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:  # type: ignore[override]
        observation = state.clone()
        actions, normalised = self.actions(observation, image)
        return actions, observation, normalised[:, :NORMALISED_SLICE].clone()


class PolicyActionsOnly(Policy):
    """The same weights and computation with nothing returned through a copy: the reference a
    correct lowering of ``Policy`` must match, since OpenVINO runs both the same way."""

    def forward(self, state: torch.Tensor, image: torch.Tensor) -> torch.Tensor:  # type: ignore[override]
        return self.actions(state, image)[0]


def observation(channels_last: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
    """(state, camera frame): the frame channels-last, as camera pipelines often deliver it."""
    generator = torch.Generator().manual_seed(SEED + 1)
    state = torch.rand(1, STATE_DIM, generator=generator) * 4 - 2
    image = torch.rand(*IMAGE_SHAPE, generator=generator)
    return state, image.to(memory_format=torch.channels_last if channels_last else torch.contiguous_format)
