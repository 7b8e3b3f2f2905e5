// Entry for host pages that place `<formloom-builder form-id="...">` alone (docs/workspace.md, "In your own page").
import './builder/builder';
