// Defines every kind editor (the builder loads this with the question editor).
import './text-editor';
import './choice-editor';
import './group-editor';
import './advanced-editors';
import './step-editors';
import './fuse-editor';
export { KINDS, kindOf, QUIZ_TYPES, VALIDATION_KEYS, type KindInfo } from './registry';
