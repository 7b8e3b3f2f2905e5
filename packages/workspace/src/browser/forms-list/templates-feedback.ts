import { choices, jump, q, recall, type FormTemplate } from './template-kit';

/* Templates that ask people what they think (the gallery's Feedback and Education groups). */

export const FEEDBACK_TEMPLATES: FormTemplate[] = [
  {
    id: 'nps',
    name: 'Feedback (NPS)',
    category: 'Feedback',
    summary: 'A 0–10 score, then a follow-up that depends on it.',
    preset: 'midnight',
    form: {
      title: 'How likely are you to recommend us?',
      welcome_title: 'Two minutes to help us improve',
      welcome_description: 'Three short questions. Your answers go straight to the team.',
      thank_you_title: 'Thank you!',
      thank_you_description: 'We read every answer.',
      questions: [
        q('score', 'opinion_scale', 'How likely are you to recommend us to a friend or colleague?', {
          required: true,
          properties: { min: 0, max: 10, min_label: 'Not at all likely', max_label: 'Extremely likely' },
          logic_jumps: [jump('detractor', { op: 'less_or_equal', value: 6 }), jump('promoter', { op: 'greater_or_equal', value: 9 })],
        }),
        q('passive', 'long_text', `You gave us ${recall('score')}. What would make it a 10?`, { logic_jumps: [jump('contact')] }),
        q('detractor', 'long_text', 'We are sorry to hear that. What disappointed you?', { logic_jumps: [jump('contact')] }),
        q('promoter', 'long_text', 'Great to hear! What do you love most?'),
        q('contact', 'email', 'May we follow up? Leave your email address (optional).'),
      ],
    },
  },
  {
    id: 'csat',
    name: 'Customer satisfaction',
    category: 'Feedback',
    summary: 'Stars, effort and what went wrong when it did.',
    preset: 'clean',
    form: {
      title: 'How did we do?',
      thank_you_title: 'Thanks for telling us',
      questions: [
        q('stars', 'rating', 'How satisfied are you with your recent experience?', {
          required: true,
          properties: { steps: 5, shape: 'star' },
          logic_jumps: [jump('aspects', { op: 'greater_or_equal', value: 4 })],
        }),
        q('wrong', 'long_text', 'Sorry about that. What went wrong?', { required: true }),
        q('aspects', 'multiple_choice', 'What stood out?', {
          properties: { choices: choices('Speed', 'Friendliness', 'Knowledge', 'Price', 'Product quality'), allow_multiple: true },
        }),
        q('effort', 'opinion_scale', 'How easy was it to get what you needed?', { properties: { min: 1, max: 7, min_label: 'Very hard', max_label: 'Very easy' } }),
        q('more', 'long_text', 'Anything else you would like us to know?'),
      ],
    },
  },
  {
    id: 'survey',
    name: 'Survey',
    category: 'Feedback',
    summary: 'Who people are and how they use your product.',
    preset: 'ocean',
    form: {
      title: 'Product survey',
      welcome_title: 'Help shape what we build next',
      welcome_description: 'About 3 minutes, 7 questions.',
      questions: [
        q('role', 'multiple_choice', 'Which best describes you?', { required: true, properties: { choices: choices('Founder', 'Manager', 'Engineer', 'Designer', 'Student', 'Other') } }),
        q('often', 'multiple_choice', 'How often do you use the product?', { required: true, properties: { choices: choices('Every day', 'A few times a week', 'A few times a month', 'Rarely') } }),
        q('features', 'multiple_choice', 'Which features do you use?', { properties: { choices: choices('Dashboards', 'Reports', 'Integrations', 'Mobile app', 'API'), allow_multiple: true } }),
        q('value', 'rating', 'How much value does it give you?', { properties: { steps: 5, shape: 'heart' } }),
        q('missing', 'long_text', 'What is the one thing you wish it did?'),
        q('interview', 'yes_no', 'Would you join a 20-minute call with our team?', { logic_jumps: [jump('end', { op: 'equals', value: false })] }),
        q('email', 'email', 'Where can we reach you for the call?', { required: true }),
      ],
    },
  },
  {
    id: 'employee',
    name: 'Employee feedback',
    category: 'Work',
    summary: 'Anonymous pulse: eNPS, support, tools.',
    preset: 'forest',
    form: {
      title: 'Team pulse',
      welcome_title: 'Team pulse',
      welcome_description: 'Anonymous: no name or email is asked, and answers are only shown together.',
      questions: [
        q('enps', 'opinion_scale', 'How likely are you to recommend working here to a friend?', { required: true, properties: { min: 0, max: 10, min_label: 'Not likely', max_label: 'Very likely' } }),
        q('manager', 'rating', 'How supported do you feel by your manager?', { properties: { steps: 5, shape: 'star' } }),
        q('tools', 'yes_no', 'Do you have the tools you need to do your job well?', { required: true, logic_jumps: [jump('improve', { op: 'equals', value: true })] }),
        q('missing', 'long_text', 'What is missing?', { required: true }),
        q('improve', 'multiple_choice', 'What would improve your work most?', {
          properties: { choices: choices('Clearer goals', 'Fewer meetings', 'More feedback', 'Growth opportunities', 'Better tools', 'Flexible hours'), allow_multiple: true },
          validations: { max_selections: 3 },
        }),
        q('else', 'long_text', 'Anything else on your mind?'),
      ],
    },
  },
  {
    id: 'course',
    name: 'Course evaluation',
    category: 'Education',
    summary: 'Rate a course, its pace and its teacher.',
    preset: 'paper',
    form: {
      title: 'Course evaluation',
      questions: [
        q('course', 'short_text', 'Which course did you take?', { required: true, properties: { placeholder: 'e.g. Introduction to statistics' } }),
        q('overall', 'rating', `Overall, how would you rate ${recall('course', 'the course')}?`, { required: true, properties: { steps: 5, shape: 'star' } }),
        q('pace', 'opinion_scale', 'How was the pace?', { properties: { min: 1, max: 5, min_label: 'Too slow', max_label: 'Too fast' } }),
        q('teacher', 'rating', 'How clear was the teacher?', { properties: { steps: 5, shape: 'star' } }),
        q('useful', 'multiple_choice', 'What helped you learn most?', { properties: { choices: choices('Lectures', 'Exercises', 'Reading', 'Group work', 'Office hours'), allow_multiple: true } }),
        q('recommend', 'yes_no', 'Would you recommend it to another student?', { required: true }),
        q('improve', 'long_text', 'What one change would make it better?'),
      ],
    },
  },
  {
    id: 'personality',
    name: 'Personality quiz',
    category: 'Education',
    summary: 'Each answer votes for an ending: people see the one that fits them.',
    preset: 'sunset',
    form: {
      title: 'Which coffee are you?',
      mode: 'match_quiz',
      welcome_title: 'Which coffee are you?',
      welcome_description: 'Four questions, no wrong answers.',
      quiz_settings: {
        endings: [
          { id: 'espresso', title: 'You are an espresso', description: 'Short, strong and straight to the point.' },
          { id: 'latte', title: 'You are a latte', description: 'Warm, easy-going and good company.' },
          { id: 'cold_brew', title: 'You are a cold brew', description: 'Patient, calm and full of surprises.' },
        ],
      },
      questions: [
        q('morning', 'multiple_choice', 'How do you start your morning?', {
          required: true,
          properties: { choices: [{ label: 'Straight to work', ending_id: 'espresso' }, { label: 'A slow breakfast with friends', ending_id: 'latte' }, { label: 'A long walk', ending_id: 'cold_brew' }] },
        }),
        q('weekend', 'multiple_choice', 'Your ideal weekend?', {
          required: true,
          properties: { choices: [{ label: 'A city trip, packed', ending_id: 'espresso' }, { label: 'A dinner party', ending_id: 'latte' }, { label: 'A book by the lake', ending_id: 'cold_brew' }] },
        }),
        q('music', 'dropdown', 'Pick a soundtrack', {
          required: true,
          properties: { choices: [{ label: 'Fast jazz', ending_id: 'espresso' }, { label: 'Pop classics', ending_id: 'latte' }, { label: 'Ambient', ending_id: 'cold_brew' }] },
        }),
        q('deadline', 'multiple_choice', 'A deadline is coming. You…', {
          required: true,
          properties: { choices: [{ label: 'Finish early', ending_id: 'espresso' }, { label: 'Ask the team to help', ending_id: 'latte' }, { label: 'Stay calm, it will work out', ending_id: 'cold_brew' }] },
        }),
      ],
    },
  },
  {
    id: 'quiz',
    name: 'Knowledge quiz',
    category: 'Education',
    summary: 'Scored questions with correct answers.',
    preset: 'blossom',
    form: {
      title: 'How well do you know the solar system?',
      mode: 'knowledge_quiz',
      welcome_title: 'Solar system quiz',
      welcome_description: 'Five questions, one point each.',
      questions: [
        q('closest', 'multiple_choice', 'Which planet is closest to the sun?', { required: true, properties: { choices: choices('Mercury', 'Venus', 'Mars', 'Earth'), correct_answer: 'Mercury', points: 1 } }),
        q('largest', 'multiple_choice', 'Which is the largest planet?', { required: true, properties: { choices: choices('Saturn', 'Jupiter', 'Neptune', 'Uranus'), correct_answer: 'Jupiter', points: 1 } }),
        q('moons', 'number', 'How many moons does Mars have?', { required: true, properties: { min: 0, max: 100, correct_answer: 2, points: 1 } }),
        q('dwarf', 'yes_no', 'Is Pluto classified as a dwarf planet?', { required: true, properties: { correct_answer: true, points: 1 } }),
        q('red', 'dropdown', 'Which planet is called the Red Planet?', { required: true, properties: { choices: choices('Venus', 'Mars', 'Mercury', 'Jupiter'), correct_answer: 'Mars', points: 1 } }),
      ],
    },
  },
];
