// Exercise 05-4, solved: the solution is the chapter's stage 2 of the ticket table itself
// (stages/ticket/02_warp_aggregated.cu), whose kernel ticket_warp reads a value in every lane (0
// past n, so that the whole warp votes) and calls warp_ticket (common/device/warp_aggregate.cuh):
// __ballot_sync of the keeping lanes, the leader (the lowest voter) adding their __popc to the
// counter, shuffle_index broadcasting the base it got back, and each lane's slot at base + the
// voters below it (ticket_rank, common/algorithm/warp_aggregate.hpp). Read both.
#include "build_4_warp_ticket.hpp"

namespace stepwise::atomics::exercises {

TicketStage exercise_05_4_stage() { return ticket_warp_aggregated(); }

}  // namespace stepwise::atomics::exercises
