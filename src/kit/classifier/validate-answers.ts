// Checks a decision model's result against the questions it was asked (docs/scorers.md, classifiers).
// A model may round its numbers; the tolerances below follow the provider contract: every
// value rounded to d decimals may be off by half a unit in the last place (0.5 · 10^-d), on
// top of a fixed 1e-6 for floating-point noise. So, for n options / levels 0..N−1:
//   sum of probabilities     |Σp − 1|              ≤ 1e-6 + n · εp
//   chosen option is highest p(choice) ≥ max(p) − (1e-6 + 2 · εp)   (both sides rounded)
//   score matches its mean   |Σ i·p_i − score|     ≤ 1e-6 + εs + εp · Σ i
// where εp and εs come from rounding.probabilityDecimals and rounding.scoreDecimals (0 when absent).

import { isPlainObject } from './json.ts';
import type { ClassifierRounding, Question, Questions } from './types.ts';

const floatTolerance = 1e-6;

export function validateAnswers(questions: Questions, answers: unknown, rounding: unknown): void {
  const { probabilityError, scoreError } = roundingErrors(rounding);
  if (!isPlainObject(answers)) throw new TypeError('The evaluation model returned answers that are not an object.');
  const questionIds = Object.keys(questions);
  const answerIds = Object.keys(answers);
  if (answerIds.length !== questionIds.length || answerIds.some((id) => !Object.hasOwn(questions, id))) {
    throw new TypeError('The evaluation model must return exactly one answer per question.');
  }
  for (const questionId of questionIds) {
    validateAnswer(questionId, questions[questionId] as Question, answers[questionId], probabilityError, scoreError);
  }
}

function validateAnswer(
  questionId: string,
  question: Question,
  answer: unknown,
  probabilityError: number,
  scoreError: number,
): void {
  if (isPlainObject(answer) && answer.type === 'refusal') return;
  if (!isPlainObject(answer) || answer.type !== question.type) {
    throw new TypeError(`Answer '${questionId}' does not match its question type.`);
  }
  if (question.type === 'boolean') {
    if (!isProbability(answer.probability)) {
      throw new TypeError(`Boolean answer '${questionId}' probability must be a finite number between 0 and 1.`);
    }
    return;
  }
  if (question.type === 'choice') {
    const options = Object.keys(question.criteria);
    const choice = answer.choice;
    if (typeof choice !== 'string' || !Object.hasOwn(question.criteria, choice)) {
      throw new TypeError(`Choice answer '${questionId}' selected an unknown option.`);
    }
    if (answer.probabilities === undefined) return;
    const probabilities = validateDistribution(questionId, answer.probabilities, options, probabilityError);
    const highest = Math.max(...Object.values(probabilities));
    if ((probabilities[choice] as number) < highest - (floatTolerance + 2 * probabilityError)) {
      throw new TypeError(`Choice answer '${questionId}' did not select a highest-probability option.`);
    }
    return;
  }
  const lastLevel = question.criteria.length - 1;
  const score = answer.score;
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > lastLevel) {
    throw new TypeError(`Score answer '${questionId}' must be a number in [0, ${lastLevel}].`);
  }
  if (answer.probabilities === undefined) return;
  const levels = question.criteria.map((_, index) => String(index));
  const probabilities = validateDistribution(questionId, answer.probabilities, levels, probabilityError);
  const mean = levels.reduce((total, level) => total + Number(level) * (probabilities[level] as number), 0);
  const indexSum = (lastLevel * (lastLevel + 1)) / 2;
  if (Math.abs(mean - score) > floatTolerance + scoreError + probabilityError * indexSum) {
    throw new TypeError(
      `Score answer '${questionId}' is ${score} but its probability-weighted mean is ${mean}; they must match.`,
    );
  }
}

function validateDistribution(
  questionId: string,
  value: unknown,
  keys: string[],
  probabilityError: number,
): Record<string, number> {
  if (!isPlainObject(value) || Object.keys(value).length !== keys.length || !keys.every((key) => Object.hasOwn(value, key))) {
    throw new TypeError(`Answer '${questionId}' probabilities must cover exactly the options of its question.`);
  }
  let sum = 0;
  for (const probability of Object.values(value)) {
    if (!isProbability(probability)) {
      throw new TypeError(`Answer '${questionId}' probabilities must be finite numbers between 0 and 1.`);
    }
    sum += probability;
  }
  if (Math.abs(sum - 1) > floatTolerance + keys.length * probabilityError) {
    throw new TypeError(`Answer '${questionId}' probabilities sum to ${sum}; they must sum to 1.`);
  }
  return value as Record<string, number>;
}

function roundingErrors(rounding: unknown): { probabilityError: number; scoreError: number } {
  if (rounding === undefined) return { probabilityError: 0, scoreError: 0 };
  if (!isPlainObject(rounding)) throw new TypeError('The evaluation model returned rounding that is not an object.');
  const errors = { probabilityError: 0, scoreError: 0 };
  for (const [name, decimals] of Object.entries(rounding as ClassifierRounding)) {
    if (decimals === undefined) continue;
    if ((name !== 'probabilityDecimals' && name !== 'scoreDecimals') || !Number.isInteger(decimals) || decimals < 0 || decimals > 15) {
      throw new TypeError('The evaluation model returned rounding that is not a count of decimals between 0 and 15.');
    }
    errors[name === 'probabilityDecimals' ? 'probabilityError' : 'scoreError'] = 0.5 * 10 ** -decimals;
  }
  return errors;
}

function isProbability(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
}
