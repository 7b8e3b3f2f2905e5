import type { FormInput } from '../../data/forms';

/** Starter templates of the "New form" menu: plain form bodies sent to `POST /forms`. */
export interface StarterTemplate {
  id: string;
  name: string;
  summary: string;
  form: FormInput & { title: string };
}

export const STARTER_TEMPLATES: StarterTemplate[] = [
  { id: 'blank', name: 'Blank form', summary: 'Start from nothing.', form: { title: 'Untitled form', questions: [] } },
  {
    id: 'contact',
    name: 'Contact form',
    summary: 'Name, email and a message.',
    form: {
      title: 'Contact us',
      questions: [
        { type: 'short_text', title: 'What is your name?', required: true, properties: {} },
        { type: 'email', title: 'Your email address', required: true, properties: {} },
        { type: 'long_text', title: 'How can we help?', required: true, properties: {} },
      ],
    },
  },
  {
    id: 'feedback',
    name: 'Customer feedback',
    summary: 'A rating, a score and a comment.',
    form: {
      title: 'Tell us how we did',
      questions: [
        { type: 'rating', title: 'How would you rate your experience?', required: true, properties: { steps: 5, shape: 'star' } },
        { type: 'opinion_scale', title: 'How likely are you to recommend us?', required: false, properties: { min: 0, max: 10, min_label: 'Not likely', max_label: 'Very likely' } },
        { type: 'long_text', title: 'Anything we could do better?', required: false, properties: {} },
      ],
    },
  },
  {
    id: 'event',
    name: 'Event registration',
    summary: 'Contact details, a session choice and a date.',
    form: {
      title: 'Register for the event',
      questions: [
        { type: 'contact_info', title: 'Your details', required: true, properties: { fields: ['first_name', 'last_name', 'email'] } },
        { type: 'multiple_choice', title: 'Which sessions will you attend?', required: true, properties: { choices: [{ label: 'Morning' }, { label: 'Afternoon' }, { label: 'Evening' }], allow_multiple: true } },
        { type: 'yes_no', title: 'Do you need a vegetarian meal?', required: false, properties: {} },
      ],
    },
  },
  {
    id: 'quiz',
    name: 'Knowledge quiz',
    summary: 'Scored questions with correct answers.',
    form: {
      title: 'Quick quiz',
      mode: 'knowledge_quiz',
      questions: [
        { type: 'multiple_choice', title: 'Which planet is closest to the sun?', required: true, properties: { choices: [{ label: 'Mercury' }, { label: 'Venus' }, { label: 'Mars' }], allow_multiple: false, correct_answer: 'Mercury', points: 1 } },
        { type: 'number', title: 'How many continents are there?', required: true, properties: { correct_answer: 7, points: 1 } },
      ],
    },
  },
];
