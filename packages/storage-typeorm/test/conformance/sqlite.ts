import test from 'ava';
import { runStorageConformance } from '@formloom/core/testing';
import { createTestDatabase } from '../../src/testing';

runStorageConformance(test, { name: 'sqlite', create: () => createTestDatabase('sqlite') });
