// The package ships no types; child.ts describes the part of its API it uses.
declare module '@echogarden/espeak-ng-emscripten';
