// Entry for host pages that place `<formloom-results form-id="...">` alone (docs/workspace.md, "In your own page").
import './results/results';
