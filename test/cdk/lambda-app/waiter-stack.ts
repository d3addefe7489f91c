/**
 * A second stack of the Lambda end-to-end test: a `cr.Provider` with an `isCompleteHandler`. The
 * framework's onEvent function starts the Step Functions state machine that polls isComplete;
 * Overcast does not run Step Functions, so the test deploys it only to see the custom resource
 * fail with a message saying so, and the stack roll back to nothing.
 */
import { CustomResource, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';

const inline = (body: string): Code => Code.fromInline(`exports.handler = async (event) => (${body});`);

export class WaiterStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const fn = (name: string, body: string): LambdaFunction =>
      new LambdaFunction(this, name, { runtime: Runtime.NODEJS_20_X, handler: 'index.handler', code: inline(body) });
    const provider = new Provider(this, 'Waiter', {
      onEventHandler: fn('WaiterOnEvent', `{ PhysicalResourceId: 'waited' }`),
      isCompleteHandler: fn('WaiterIsComplete', `{ IsComplete: true, Data: { Done: 'yes' } }`),
      queryInterval: Duration.seconds(1),
      totalTimeout: Duration.minutes(1),
    });
    new CustomResource(this, 'Waited', { serviceToken: provider.serviceToken });
  }
}
