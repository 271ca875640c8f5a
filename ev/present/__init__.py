"""Presentation: number formatting, translations, chart renderers, text tables and the report."""
