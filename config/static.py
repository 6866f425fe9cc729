"""Static files as production serves them: names carrying their content's
hash, so a browser may keep each one for a year and a new release can never
be mixed with the old one's cached files."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # untyped base (whitenoise)
    """WhiteNoise's hashed and compressed copies (``collectstatic`` makes
    them and their manifest), with the client's ES module imports
    (``import { api } from "./api.js"``) rewritten to the hashed names too:
    otherwise a hashed ``app.js`` would load a cached ``api.js`` of an
    older release."""

    support_js_module_import_aggregation = True
    manifest_strict = True
