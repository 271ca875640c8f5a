"""Presentation: number formatting, translations, chart renderers, text tables and the report."""

#: the strategy chart's output formats (``ev.present.chart_render``); here, so that the command line names them
#: without importing the renderers
CHART_FORMATS = ("text", "md", "csv", "html", "svg", "png")
