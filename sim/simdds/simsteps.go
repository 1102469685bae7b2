package simdds

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ros/action_msgs"
	"github.com/ddsgo/ddsgo/ros/builtin_interfaces"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/ddsgo/ddsgo/ros/unique_identifier_msgs"
)

// keptGoals bounds the finished goals whose results and statuses the action keeps.
const keptGoals = 64

// stepsAction is the SimulateSteps action of ROS 2 (rcl_action's protocol): the
// services NAME/_action/send_goal, get_result and cancel_goal, the feedback topic
// NAME/_action/feedback (after each step) and the status topic NAME/_action/status
// (RELIABLE TRANSIENT_LOCAL KEEP_LAST 1, as rcl_action's). Goals are accepted and
// run at once, as Gazebo's bridge does; a goal that cannot run (zero or negative
// steps, simulation not paused) is aborted with a Result that says why.
type stepsAction struct {
	s       *Services
	fbT     *dds.Topic[si.SimulateStepsFeedbackMessage]
	fbW     *dds.DataWriter[si.SimulateStepsFeedbackMessage]
	stT     *dds.Topic[action_msgs.GoalStatusArray]
	stW     *dds.DataWriter[action_msgs.GoalStatusArray]
	ctx     context.Context // ends at Close
	stop    context.CancelFunc
	wg      sync.WaitGroup
	pubMu   sync.Mutex // held across building and writing a status; taken before mu
	mu      sync.Mutex // guards the fields below
	closers []interface{ Close() error }
	goals   map[unique_identifier_msgs.UUID]*stepsGoal
	order   []*stepsGoal // by acceptance
	closed  bool
}

type stepsGoal struct {
	info   action_msgs.GoalInfo
	steps  uint64
	status int8
	result si.Result
	cancel context.CancelFunc
	done   chan struct{} // closed at a terminal status
}

// newStepsAction creates the topics and services of the action NAME.
func newStepsAction(s *Services, name string) (*stepsAction, error) {
	a := &stepsAction{s: s, goals: map[unique_identifier_msgs.UUID]*stepsGoal{}}
	a.ctx, a.stop = context.WithCancel(context.Background())
	topic := "rt" + name + "/_action/"
	err := func() (err error) {
		if a.fbT, err = dds.NewTopic[si.SimulateStepsFeedbackMessage](s.p, topic+"feedback"); err != nil {
			return err
		}
		a.closers = append(a.closers, a.fbT)
		if a.fbW, err = dds.NewWriter(a.fbT, dds.Reliable(), dds.KeepLast(10)); err != nil {
			return err
		}
		a.closers = append(a.closers, a.fbW)
		if a.stT, err = dds.NewTopic[action_msgs.GoalStatusArray](s.p, topic+"status"); err != nil {
			return err
		}
		a.closers = append(a.closers, a.stT)
		if a.stW, err = dds.NewWriter(a.stT, dds.Reliable(), dds.TransientLocal(), dds.KeepLast(1)); err != nil {
			return err
		}
		a.closers = append(a.closers, a.stW)
		return nil
	}()
	if err != nil {
		return nil, errors.Join(err, a.close())
	}
	return a, nil
}

// serve adds the action's services to s: PREFIX/name/_action/...
func (a *stepsAction) serve(name string) error {
	for _, add := range []func() error{
		func() error { return serve(a.s, name+"/_action/send_goal", a.sendGoal) },
		func() error { return serve(a.s, name+"/_action/get_result", a.getResult) },
		func() error { return serve(a.s, name+"/_action/cancel_goal", a.cancelGoal) },
	} {
		if err := add(); err != nil {
			return err
		}
	}
	return nil
}

// close ends the goals (aborted) and deletes the writers and topics; the services'
// repliers are closed before, by Services.Close.
func (a *stepsAction) close() error {
	a.stop()
	a.wg.Wait()
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	var errs []error
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i].Close())
	}
	return errors.Join(errs...)
}

func (a *stepsAction) sendGoal(_ context.Context, q *si.SimulateStepsSendGoalRequest) si.SimulateStepsSendGoalResponse {
	stamp := rosTime(time.Duration(time.Now().UnixNano()))
	a.mu.Lock()
	if _, dup := a.goals[q.GoalID]; dup || a.closed {
		a.mu.Unlock()
		return si.SimulateStepsSendGoalResponse{Accepted: false, Stamp: stamp}
	}
	ctx, cancel := context.WithCancel(a.ctx)
	g := &stepsGoal{
		info:  action_msgs.GoalInfo{GoalID: q.GoalID, Stamp: stamp},
		steps: q.Goal.Steps, status: action_msgs.GoalStatus_STATUS_ACCEPTED,
		cancel: cancel, done: make(chan struct{}),
	}
	a.goals[q.GoalID] = g
	a.order = append(a.order, g)
	a.wg.Add(1)
	a.mu.Unlock()
	a.publishStatus()
	go a.run(ctx, g)
	return si.SimulateStepsSendGoalResponse{Accepted: true, Stamp: stamp}
}

// run executes a goal: the services take the steps and it publishes feedback after
// each, then ends the goal.
func (a *stepsAction) run(ctx context.Context, g *stepsGoal) {
	defer a.wg.Done()
	defer g.cancel()
	a.setStatus(g, action_msgs.GoalStatus_STATUS_EXECUTING)
	done, res, err := a.s.s.SimulateSteps(ctx, g.steps, func(done uint64) { a.feedback(g, done) })
	switch {
	case err != nil && a.ctx.Err() != nil:
		a.finish(g, action_msgs.GoalStatus_STATUS_ABORTED, failed("the services closed "+a.progress(g, done)))
	case err != nil:
		a.finish(g, action_msgs.GoalStatus_STATUS_CANCELED, failed("canceled "+a.progress(g, done)))
	case res.Result != si.Result_RESULT_OK:
		a.finish(g, action_msgs.GoalStatus_STATUS_ABORTED, res)
	default:
		a.finish(g, action_msgs.GoalStatus_STATUS_SUCCEEDED, res)
	}
}

// progress says how far a goal went.
func (*stepsAction) progress(g *stepsGoal, done uint64) string {
	return "after " + strconv.FormatUint(done, 10) + " of " + strconv.FormatUint(g.steps, 10) + " steps"
}

// failed is a RESULT_OPERATION_FAILED Result.
func failed(msg string) si.Result {
	return si.Result{Result: si.Result_RESULT_OPERATION_FAILED, ErrorMessage: msg}
}

func (a *stepsAction) feedback(g *stepsGoal, done uint64) {
	msg := si.SimulateStepsFeedbackMessage{
		GoalID:   g.info.GoalID,
		Feedback: si.SimulateStepsFeedback{CompletedSteps: done, RemainingSteps: g.steps - done},
	}
	_ = a.fbW.Write(a.ctx, &msg) // KEEP_LAST never blocks
}

func (a *stepsAction) setStatus(g *stepsGoal, status int8) {
	a.mu.Lock()
	if g.status != action_msgs.GoalStatus_STATUS_CANCELING {
		g.status = status
	}
	a.mu.Unlock()
	a.publishStatus()
}

// finish gives g its terminal status and result, and forgets the oldest finished
// goals beyond keptGoals.
func (a *stepsAction) finish(g *stepsGoal, status int8, res si.Result) {
	a.mu.Lock()
	g.status, g.result = status, res
	close(g.done)
	finished := 0
	for i := len(a.order) - 1; i >= 0; i-- {
		o := a.order[i]
		if terminal(o.status) {
			if finished++; finished > keptGoals {
				delete(a.goals, o.info.GoalID)
				a.order = append(a.order[:i], a.order[i+1:]...)
			}
		}
	}
	a.mu.Unlock()
	a.publishStatus()
}

func terminal(status int8) bool {
	return status == action_msgs.GoalStatus_STATUS_SUCCEEDED || status == action_msgs.GoalStatus_STATUS_CANCELED ||
		status == action_msgs.GoalStatus_STATUS_ABORTED
}

// publishStatus writes the statuses of the goals. pubMu keeps the writes in the order
// of the states they copy: the last sample (all a late joiner gets) is the latest.
func (a *stepsAction) publishStatus() {
	a.pubMu.Lock()
	defer a.pubMu.Unlock()
	a.mu.Lock()
	msg := action_msgs.GoalStatusArray{StatusList: make([]action_msgs.GoalStatus, len(a.order))}
	for i, g := range a.order {
		msg.StatusList[i] = action_msgs.GoalStatus{GoalInfo: g.info, Status: g.status}
	}
	a.mu.Unlock()
	_ = a.stW.Write(context.Background(), &msg) // KEEP_LAST never blocks
}

// getResult answers when the goal has ended; an unknown goal gets STATUS_UNKNOWN
// and RESULT_NOT_FOUND.
func (a *stepsAction) getResult(ctx context.Context, q *si.SimulateStepsGetResultRequest) si.SimulateStepsGetResultResponse {
	a.mu.Lock()
	g := a.goals[q.GoalID]
	a.mu.Unlock()
	if g == nil {
		return si.SimulateStepsGetResultResponse{
			Status: action_msgs.GoalStatus_STATUS_UNKNOWN,
			Result: si.SimulateStepsResult{Result: si.Result{Result: si.Result_RESULT_NOT_FOUND, ErrorMessage: "unknown goal"}},
		}
	}
	select {
	case <-g.done:
	case <-ctx.Done():
		return si.SimulateStepsGetResultResponse{
			Status: action_msgs.GoalStatus_STATUS_UNKNOWN,
			Result: si.SimulateStepsResult{Result: failed("the services closed")},
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return si.SimulateStepsGetResultResponse{Status: g.status, Result: si.SimulateStepsResult{Result: g.result}}
}

// cancelGoal cancels as action_msgs/CancelGoal says: a zero goal id and stamp cancel
// every goal; a zero id, those accepted at or before the stamp; an id, that goal (and
// with a stamp also those accepted at or before it).
func (a *stepsAction) cancelGoal(_ context.Context, q *action_msgs.CancelGoalRequest) action_msgs.CancelGoalResponse {
	var rep action_msgs.CancelGoalResponse
	id, stamp := q.GoalInfo.GoalID, q.GoalInfo.Stamp
	a.mu.Lock()
	if id != (unique_identifier_msgs.UUID{}) {
		g := a.goals[id]
		switch {
		case g == nil:
			a.mu.Unlock()
			return action_msgs.CancelGoalResponse{ReturnCode: action_msgs.CancelGoalResponse_ERROR_UNKNOWN_GOAL_ID}
		case terminal(g.status):
			a.mu.Unlock()
			return action_msgs.CancelGoalResponse{ReturnCode: action_msgs.CancelGoalResponse_ERROR_GOAL_TERMINATED}
		}
	}
	for _, g := range a.order {
		match := g.info.GoalID == id ||
			(id == (unique_identifier_msgs.UUID{}) && stamp == (builtin_interfaces.Time{})) ||
			(stamp != (builtin_interfaces.Time{}) && !after(g.info.Stamp, stamp))
		if match && !terminal(g.status) && g.status != action_msgs.GoalStatus_STATUS_CANCELING {
			g.status = action_msgs.GoalStatus_STATUS_CANCELING
			g.cancel()
			rep.GoalsCanceling = append(rep.GoalsCanceling, g.info)
		}
	}
	a.mu.Unlock()
	if len(rep.GoalsCanceling) == 0 {
		rep.ReturnCode = action_msgs.CancelGoalResponse_ERROR_REJECTED
		return rep
	}
	a.publishStatus()
	return rep
}

// after reports whether time t is after u.
func after(t, u builtin_interfaces.Time) bool {
	return t.Sec > u.Sec || (t.Sec == u.Sec && t.Nanosec > u.Nanosec)
}
