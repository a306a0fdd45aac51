"""Cosine neighbours against a direct computation; PCA against numpy's SVD."""
import numpy as np
import torch

from playground.analysis.embeddings import cosine_to_all, embedding_table, nearest_neighbours, pca_2d
from playground.data.tokenizer import NUM_SPECIAL
from tests.model.helpers import tiny_model

TABLE = torch.randn(30, 8, generator=torch.Generator().manual_seed(1))


def test_cosine_matches_a_direct_computation_and_neighbours_are_ordinary_tokens_closest_first():
    a = TABLE.numpy().astype(np.float64)
    direct = a @ a[7] / (np.linalg.norm(a, axis=1) * np.linalg.norm(a[7]))
    np.testing.assert_allclose(cosine_to_all(TABLE, 7).numpy(), direct, atol=1e-12)
    neighbours = nearest_neighbours(TABLE, 7, 5)
    order = [i for i in np.argsort(-direct) if i != 7 and i >= NUM_SPECIAL][:5]
    assert [i for i, _ in neighbours] == order
    np.testing.assert_allclose([c for _, c in neighbours], direct[order], atol=1e-12)


def test_pca_matches_numpys_svd_up_to_each_components_sign():
    projection = pca_2d(TABLE)
    rows = TABLE[NUM_SPECIAL:].numpy().astype(np.float64)
    centred = rows - rows.mean(axis=0)
    _, singular, vt = np.linalg.svd(centred, full_matrices=False)
    expected = centred @ vt[:2].T                                           # [N, 2]
    signs = np.sign(np.sum(projection.points.numpy() * expected, axis=0))
    np.testing.assert_allclose(projection.points.numpy(), expected * signs, atol=1e-10)
    np.testing.assert_allclose(projection.explained, (singular[:2] ** 2) / (singular ** 2).sum(), atol=1e-12)
    assert projection.ids == list(range(NUM_SPECIAL, 30))


def test_the_table_is_the_input_embedding_of_the_first_stack():
    model = tiny_model("encoder_decoder")
    assert embedding_table(model) is not None
    assert torch.equal(embedding_table(model), model.encoder.embed.tokens.weight)
    gpt = tiny_model("decoder_only")
    assert torch.equal(embedding_table(gpt), gpt.decoder.embed.tokens.weight)
