import test from 'ava';
import { dataRightsSuite } from './data-rights-suite';

dataRightsSuite(test, 'postgres');
