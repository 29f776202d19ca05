"""The torch2cuda families: one module each, every module has NAME and generate(rng, seed) -> TorchSpec."""
import importlib

MODULES = """
act_chain binary_bcast where_mask reduce_dim var_std argreduce softmax_dim norm_last normalize_dim logsumexp_dim
cumulative pool1d pool2d linear_act bmm_t attn_scores gather_index embedding_bag loss_rowwise cat_ew fused_update pairwise_rows
""".split()


def all_families():
    """family name (pt_<module>) -> module"""
    return {"pt_" + m: importlib.import_module(f"{__name__}.{m}") for m in MODULES}
