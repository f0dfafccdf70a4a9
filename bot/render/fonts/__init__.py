"""Fonts shipped with the renderer (a package so installers carry the files along)."""
