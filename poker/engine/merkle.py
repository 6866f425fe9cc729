"""Merkle trees as RFC 9162 (Certificate Transparency 2.0) defines them.

A tree commits to a list of leaves with one SHA-256 hash, its root, and
proves any one leaf with an *audit path* of about log2(n) hashes, without
showing the other leaves.  The definitions are the RFC's (section 2.1), so
any of its implementations checks our proofs:

- a leaf hashes as ``SHA-256(0x00 || data)``, an inner node as
  ``SHA-256(0x01 || left || right)`` (the prefixes keep a leaf from passing
  for a node);
- a tree of n > 1 leaves splits at k, the largest power of two below n:
  ``MTH(D[0:n]) = node(MTH(D[0:k]), MTH(D[k:n]))``;
- a path lists the siblings from the leaf up; ``verify`` is the RFC's
  algorithm of section 2.1.3.2.

Pure: hashlib only.  ``poker.engine.fairdeal`` says what the leaves of a
deck are.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def leaf_hash(data: bytes) -> bytes:
    """The hash of a leaf holding ``data``."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """The hash of an inner node over two subtrees."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two below ``n`` (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(leaves: Sequence[bytes]) -> bytes:
    """The root over leaf hashes ``leaves`` (at least one)."""
    if not leaves:
        raise ValueError("a tree needs a leaf")
    if len(leaves) == 1:
        return leaves[0]
    k = _split(len(leaves))
    return node_hash(root(leaves[:k]), root(leaves[k:]))


def audit_paths(leaves: Sequence[bytes]) -> tuple[tuple[bytes, ...], ...]:
    """The audit path of every leaf of ``leaves``, in leaf order, each from
    the leaf level up: one pass over the tree, n - 1 hashes in all."""
    return _build(leaves)[1]


def audit_path(leaves: Sequence[bytes], index: int) -> tuple[bytes, ...]:
    """The siblings that prove leaf ``index`` of ``leaves``, leaf level first."""
    if not 0 <= index < len(leaves):
        raise IndexError(f"no leaf {index} in a tree of {len(leaves)}")
    return audit_paths(leaves)[index]


def _build(leaves: Sequence[bytes]) -> tuple[bytes, tuple[tuple[bytes, ...], ...]]:
    """The root of ``leaves`` and every leaf's audit path."""
    if not leaves:
        raise ValueError("a tree needs a leaf")
    if len(leaves) == 1:
        return leaves[0], ((),)
    k = _split(len(leaves))
    left, left_paths = _build(leaves[:k])
    right, right_paths = _build(leaves[k:])
    paths = tuple((*p, right) for p in left_paths) + tuple((*p, left) for p in right_paths)
    return node_hash(left, right), paths


def verify(leaf: bytes, index: int, size: int, path: Sequence[bytes], expected: bytes) -> bool:
    """Whether ``path`` proves leaf hash ``leaf`` at ``index`` of a tree of
    ``size`` leaves whose root is ``expected`` (RFC 9162, 2.1.3.2)."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for sibling in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(sibling, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, sibling)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == expected
