"""Studies: many whole games played by the engine's players (local processes or Dask), their
statistics, comparisons of a variant with its parent, the fair value of a knob, and the reports
(text, JSON, markdown, HTML with plots). This layer imports the engine; the engine never imports
it."""
