"""Small helpers over torch.fx graphs the other parts share: a node's op, its tensors, its arguments."""
