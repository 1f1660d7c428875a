"""A SentencePiece tokenizer trained here, for ExecuTorch's text runner: no model hub, the same file every run.

Why: ``TextLLMRunner`` takes a tokenizer file (HF JSON, tiktoken, SentencePiece or llama2.c); the tiny models'
vocabulary is 128 tokens, which a BPE over a robot's few commands fills. Training is deterministic with one thread
(measured: byte-identical models from two runs)."""

import io
import random
from pathlib import Path

BOS, EOS = 1, 2
WORDS = ("robot", "arm", "moves", "left", "right", "up", "down", "the", "a", "grip", "open", "close", "slowly",
         "fast", "box", "red", "blue", "cup", "table", "to", "on", "and", "then", "stop")


def train(path: Path, vocabulary: int) -> Path:
    """Writes a BPE SentencePiece model of ``vocabulary`` pieces (BOS 1, EOS 2, UNK 0) to ``path``."""
    import sentencepiece

    chooser = random.Random(0)
    lines = [" ".join(chooser.choice(WORDS) for _ in range(chooser.randint(3, 9))) for _ in range(3000)]
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_writer=model, vocab_size=vocabulary, model_type="bpe", bos_id=BOS,
        eos_id=EOS, unk_id=0, pad_id=-1, num_threads=1, character_coverage=1.0, byte_fallback=False,
        minloglevel=2)
    path.write_bytes(model.getvalue())
    return path


def encode(path: Path, text: str) -> list[int]:
    """``text`` as the runner's tokenizer encodes it with no BOS (``GenerationConfig(num_bos=0)``)."""
    import sentencepiece

    return sentencepiece.SentencePieceProcessor(model_file=str(path)).encode(text)


def pieces(path: Path, tokens: list[int]) -> list[str]:
    """Each token as the runner's callback receives it (pytorch/tokenizers' ``SPTokenizer::decode(prev, token)``):
    its piece with the word boundary as a space; after BOS without its leading space; a control token (BOS, EOS) as
    one space, what the 1.5.1 wheel's decoder returns for it (newer sources return "")."""
    import sentencepiece

    processor = sentencepiece.SentencePieceProcessor(model_file=str(path))
    said = []
    for previous, token in zip([tokens[0], *tokens], tokens, strict=False):
        if processor.is_control(token):
            said.append(" ")
            continue
        piece = processor.id_to_piece(token).replace("\u2581", " ")
        said.append(piece[1:] if previous == BOS and piece.startswith(" ") else piece)
    return said
