import test from 'ava';
import { runStorageConformance } from '@formloom/core/testing';
import { createTestDatabase } from '../../src/testing';

runStorageConformance(test, { name: 'postgres', create: () => createTestDatabase('postgres') });
