/// @file build_4_warp_ticket.hpp
/// Exercise 05-4 (README.md): a build exercise. The student writes stage 2's kernel of the ticket
/// table, the warp-aggregated counter written by hand (a ballot, one atomicAdd per warp, a shuffle
/// of its result, each lane's rank among the voters), from stage 1's atomicAdd per kept value; the
/// grader runs the chapter's GPU checks of the ticket rows on it and times it beside the chapter's
/// stage 2.
#pragma once

#include "atomics.hpp"

namespace stepwise::atomics::exercises {

/// The student's ticket stage 2 (build_4_warp_ticket.cu): a row like the chapter's
/// `ticket_warp_aggregated()`, whose launcher runs the student's kernel. The solution returns the
/// chapter's own row.
/// @throws NotDoneYet while the student file is untouched
TicketStage exercise_05_4_stage();

}  // namespace stepwise::atomics::exercises
