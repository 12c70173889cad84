// Sample catalogue: a customer-support agent and a travel-planning workflow.
import type { AgentProfile } from './scenario-types.ts';

export const supportAgent: AgentProfile = {
  entity: { type: 'agent', id: 'support-agent', name: 'Customer Support', version: '3.2.0' },
  instructions:
    'You are the customer support agent of an online store. Look orders up before answering, never promise refunds the policy does not allow, and keep answers short and friendly.',
  models: [{ modelId: 'gpt-4.1-mini', provider: 'openai' }, { modelId: 'claude-haiku-4-5', provider: 'anthropic' }],
  tags: ['support', 'customer-facing'],
  memoryNotes: ['The customer prefers email over phone.', 'The customer had a late delivery last month.', 'The customer is a member of the loyalty program.'],
  scenarios: [
    {
      id: 'order-status',
      question: 'Hi, where is my order #48213? It was supposed to arrive on Monday.',
      history: [['Hello, I need help with an order.', 'Of course! Could you share the order number?']],
      tools: [{ toolName: 'lookupOrder', args: { orderId: '48213' }, result: { status: 'in_transit', carrier: 'DHL', eta: '2025-03-06', tracking: 'JD014600006281' }, failure: 'order service timed out after 5000 ms' }],
      wrongTool: { toolName: 'createTicket', args: { subject: 'Order 48213 late' }, result: { ticketId: 'T-9921' }, failure: 'ticket queue unavailable' },
      answers: {
        complete: 'Your order #48213 is in transit with DHL. The new estimated delivery date is March 6, and you can follow it with tracking number JD014600006281. Sorry for the delay!',
        partial: 'Your order #48213 is on its way and should arrive soon.',
        offTopic: 'Thanks for shopping with us! Have you seen our spring collection?',
      },
      keyTerms: ['order', '48213', 'transit', 'DHL', 'tracking', 'March 6'],
      reasoning: 'The customer asks about a late order. I should look it up and give carrier, ETA and tracking number.',
    },
    {
      id: 'refund-request',
      question: 'The blender I bought arrived broken. Can I get a refund for order #77120?',
      history: [],
      tools: [
        { toolName: 'lookupOrder', args: { orderId: '77120' }, result: { status: 'delivered', deliveredAt: '2025-02-27', items: ['Blender X200'], total: 89.9 }, failure: 'order service returned 503' },
        { toolName: 'refundOrder', args: { orderId: '77120', reason: 'damaged', amount: 89.9 }, result: { refundId: 'R-5531', amount: 89.9, method: 'original payment' }, failure: 'refund amount exceeds the order total' },
      ],
      wrongTool: { toolName: 'searchKnowledgeBase', args: { query: 'blender manual' }, result: { articles: ['Blender X200 manual'] }, failure: 'search index offline' },
      answers: {
        complete: 'I am sorry the blender arrived broken. I have issued a full refund of $89.90 for order #77120 (refund R-5531) to your original payment method; it should appear within 5 business days. You do not need to return the damaged item.',
        partial: 'Sorry about that. I have started a refund for your order.',
        offTopic: 'Blenders work best when you add liquids first.',
      },
      keyTerms: ['refund', '89.90', '77120', 'original payment', '5 business days', 'damaged'],
      reasoning: 'Damaged on arrival within the return window: the policy allows a full refund without a return.',
    },
    {
      id: 'password-reset',
      question: "I can't log in, the password reset email never arrives.",
      history: [['My account seems locked.', 'I can help. Is the problem logging in or a locked account message?']],
      tools: [{ toolName: 'searchKnowledgeBase', args: { query: 'password reset email not received' }, result: { articles: [{ title: 'Reset emails not arriving', steps: ['check spam folder', 'add noreply@shop.example to contacts', 'request a new link after 10 minutes'] }] }, failure: 'knowledge base search failed' }],
      wrongTool: { toolName: 'lookupOrder', args: { orderId: 'unknown' }, result: { error: 'not found' }, failure: 'order not found' },
      answers: {
        complete: 'Please check your spam folder first, then add noreply@shop.example to your contacts and request a new reset link after 10 minutes. If it still does not arrive, reply here and I will reset the password for you.',
        partial: 'Please check your spam folder for the reset email.',
        offTopic: 'You can update your shipping address in your account settings.',
      },
      keyTerms: ['spam', 'noreply@shop.example', 'reset link', '10 minutes', 'contacts'],
      reasoning: 'Known issue with reset emails; walk through the knowledge-base steps.',
    },
  ],
};

export const travelWorkflow: AgentProfile = {
  entity: { type: 'workflow', id: 'trip-planner', name: 'Trip Planner', version: '1.4.1' },
  instructions: 'Plan trips: find flights and hotels within budget, check the weather, and present one clear itinerary with prices.',
  models: [{ modelId: 'gemini-2.5-flash', provider: 'google' }, { modelId: 'gpt-4.1', provider: 'openai' }],
  tags: ['travel', 'workflow'],
  memoryNotes: ['The traveller prefers window seats.', 'The traveller is vegetarian.', 'The traveller travels with a small dog.'],
  scenarios: [
    {
      id: 'weekend-lisbon',
      question: 'Plan a weekend in Lisbon from Berlin, 14-16 March, budget 600 euros.',
      history: [['I want a short city trip in March.', 'Nice! Which city are you thinking of, and from where?']],
      tools: [
        { toolName: 'searchFlights', args: { from: 'BER', to: 'LIS', depart: '2025-03-14', return: '2025-03-16' }, result: { best: { airline: 'TAP', price: 212 } }, failure: 'flight search rate limited (429)' },
        { toolName: 'searchHotels', args: { city: 'Lisbon', checkIn: '2025-03-14', nights: 2, maxPrice: 150 }, result: { best: { name: 'Casa Alfama', pricePerNight: 118 } }, failure: 'hotel provider returned 502' },
        { toolName: 'getWeather', args: { city: 'Lisbon', date: '2025-03-15' }, result: { forecast: 'sunny', highC: 19 }, failure: 'weather service unavailable' },
      ],
      wrongTool: { toolName: 'searchHotels', args: { city: 'Porto', checkIn: '2025-03-14', nights: 2 }, result: { best: { name: 'Porto Ribeira', pricePerNight: 95 } }, failure: 'hotel provider returned 502' },
      answers: {
        complete: 'Here is your Lisbon weekend: TAP flights Berlin–Lisbon for 212 euros return, 2 nights at Casa Alfama for 236 euros, total 448 euros, well within your 600 euro budget. The forecast is sunny with 19°C, perfect for walking Alfama and Belém.',
        partial: 'You can fly to Lisbon with TAP and stay in Alfama; it fits your budget.',
        offTopic: 'Berlin has many great museums to visit in March.',
      },
      keyTerms: ['TAP', '212', 'Casa Alfama', '448', 'budget', 'sunny'],
      reasoning: 'Flights plus two hotel nights must stay under 600 euros; check the weather for packing advice.',
    },
  ],
};
