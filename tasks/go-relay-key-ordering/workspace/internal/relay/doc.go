// The life of an event:
//
//	Publish ─▶ store.Accept (Pending) ─▶ dispatch.Submit ─▶ queue ─▶ worker ─▶ sink
//	                                                         ▲            │
//	                                      retry timer ───────┘◀── failed ─┤
//	                                                                      ▼
//	                                                   store.Delivered / store.Dead
//
// Drain waits for the dispatcher's count of events without a final state.
package relay
